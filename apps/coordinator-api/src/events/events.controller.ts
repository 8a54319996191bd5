import { Public } from '@rcs/auth';
import { createEventsController } from '@rcs/http';
import { COORDINATOR_EVENTS_DESCRIPTION } from './public-events';

export const EventsController = createEventsController(COORDINATOR_EVENTS_DESCRIPTION, Public());
