import { reviewSuite } from '../reviewSuite';

reviewSuite(false);
