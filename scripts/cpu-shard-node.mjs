// The bench's CPU engine worker thread: Node 20 runs a worker without tsx's loader, so it is registered here first.
import { register } from 'tsx/esm/api';

register();
await import('./cpu-shard-node.ts');
