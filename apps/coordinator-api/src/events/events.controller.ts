import { Public } from '@rcs/auth';
import { createEventsController } from '@rcs/http';
import { COORDINATOR_EVENTS } from './public-events';

export const EventsController = createEventsController(COORDINATOR_EVENTS, Public());
