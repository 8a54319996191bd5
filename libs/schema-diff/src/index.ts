export * from './pending-schema-changes';
