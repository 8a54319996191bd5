/**
 * What other domains read of the verifications (the submission detail): the repository, without the
 * module file, whose imports reach back into the submissions domain.
 */
export { VerificationsRepository } from './verifications.repository';
