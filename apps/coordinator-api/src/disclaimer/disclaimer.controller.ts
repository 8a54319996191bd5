import { Public } from '@rcs/auth';
import { createDisclaimerController } from '@rcs/http';

export const DisclaimerController = createDisclaimerController(
  { paths: 'api/v1/disclaimer', description: 'Participation disclaimer every client must show (must_display is true).' },
  { paths: 'api/v1/disclaimer.md', description: 'The same disclaimer as Markdown.' },
  Public(),
);
