export * from './client';
export * from './errors';
export * from './quota';
export * from './record';
export * from './transport';
