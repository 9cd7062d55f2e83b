/** Politics: influence and elections. */
export * from './politics.ts';
