/** A dedicated worker holding one shard of the CPU engine (shardApi.ts), reached through Comlink. */
import * as Comlink from 'comlink';
import { shardApi } from './shardApi.ts';

Comlink.expose(shardApi(Comlink.transfer));
