export * from './record.ts';
export * from './files.ts';
