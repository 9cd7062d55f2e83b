// Request schemas for the research domain (see common.ts for the building blocks).
export {};
