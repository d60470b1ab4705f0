/** A dedicated worker holding the WebGPU engine (gpuApi.ts), reached through Comlink. */
import * as Comlink from 'comlink';
import { gpuEngineApi } from './gpuApi.ts';

Comlink.expose(gpuEngineApi(Comlink.transfer));
