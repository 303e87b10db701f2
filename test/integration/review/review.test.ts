import { reviewSuite } from '../reviewSuite';

reviewSuite(true);
