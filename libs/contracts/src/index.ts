export * from './errors/error-code';
export * from './errors/api-error';
