// The snapshots' property at the unit suite's size (test/properties/snapshots.ts; test:stress runs 3000 more seeds).
import { snapshotRuns } from '../../../properties/snapshots';

snapshotRuns('smoke');
