export * from './validation-item';
export * from './validation-errors';
export * from './validation.pipe';
