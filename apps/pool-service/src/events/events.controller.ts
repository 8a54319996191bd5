import { Public } from '@rcs/auth';
import { createEventsController } from '@rcs/http';
import { POOL_EVENTS } from './public-events';

export const EventsController = createEventsController(POOL_EVENTS, Public());
