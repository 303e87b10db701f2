import { hostileSuite } from '../hostileSuite';

hostileSuite(true);
