// The property runs at their full seed counts (test/properties/): the unit suite runs each over a few seeds.
import { readUpToSizes } from '../properties/files';
import { journalTails } from '../properties/journal';
import { reviewSequences } from '../properties/review';
import { snapshotRuns } from '../properties/snapshots';
import { startFolders } from '../properties/start';

startFolders('full');
reviewSequences('full');
readUpToSizes('full');
journalTails('full');
snapshotRuns('full');
