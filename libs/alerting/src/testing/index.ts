export * from './loopback-receivers';
