export * from './validation-item';
export * from './validation-errors';
export * from './validation.pipe';
export * from './reserved-keys';
