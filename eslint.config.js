// The lint rules live in lint/eslint.config.js (beside the TypeScript that typescript-eslint needs).
export { default } from './lint/eslint.config.js';
