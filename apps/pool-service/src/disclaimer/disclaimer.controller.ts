import { Public } from '@rcs/auth';
import { createDisclaimerController } from '@rcs/http';

/** The participation disclaimer: the same content as the coordinator's, from libs/contracts. */
export const DisclaimerController = createDisclaimerController(
  { paths: 'api/v1/disclaimer', description: 'Participation disclaimer every client must show.' },
  { paths: ['api/v1/disclaimer.md', 'disclaimer.md'], description: 'The same disclaimer as Markdown (also at the root, compat).' },
  Public(),
);
