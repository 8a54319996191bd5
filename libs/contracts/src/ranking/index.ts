/**
 * `@rcs/contracts/ranking`: the best-result rule and the enumerations it reads, without the DTOs'
 * decorators, so a browser bundle (the web app) imports the rule the coordinator decides by.
 */
export { MetricDirection, MetricResolutionMode, RankingMode } from '../enums';
export * from './best-result-rule';
