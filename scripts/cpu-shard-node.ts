/** A Node worker thread holding one shard of the CPU engine (src/worker/shardApi.ts): the bench's twin of src/worker/cpuShard.worker.ts. */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { shardApi } from '../src/worker/shardApi.ts';

Comlink.expose(shardApi(Comlink.transfer), nodeEndpoint(parentPort!));
