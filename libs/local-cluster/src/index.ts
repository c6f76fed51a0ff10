export {};
export * from './mock-kafka';
export * from './s3-fake';
export * from './radosgw';
export * from './postgres';
export * from './ports';
export * from './role-process';
export * from './local-cluster';
export * from './drain';
