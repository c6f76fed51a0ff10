export * from './config/config';
export * from './quarry-app';
export * from './auth/capabilities';
export type { BootstrapResult } from './auth/bootstrap';
export * from './role-main';
