import { hostileSuite } from '../hostileSuite';

hostileSuite(false);
