/**
 * Each lesson's contrast across seeds, as recorded on the page's engine by `npm run lessons --
 * --backend webgpu --seeds 2,3,4,5,6 --lesson ID --json` and `npm run contrast-record` (which
 * rewrites the table below: do not edit it by hand). Per lesson: the seeds, and per seed the
 * higher-rank variant's number minus the lower-rank one's (`top` minus `bottom`, contrast.ts
 * contrastBySeed). A contrast that shows on at least 4 of 5 seeds is promised (Lesson.contrast.promised,
 * checked again by every `npm run lessons`); otherwise the card says it depends on the seed, with
 * these numbers. Engine layer: data only.
 */
export interface SeedContrast {
  /** The engine the runs were made on. */
  backend: string;
  seeds: number[];
  /** The variant the lesson expects higher, and the one it is compared with. */
  top: number;
  bottom: number;
  /** Per seed: top's number minus bottom's. */
  diffs: number[];
}

export const CONTRAST_SEEDS: Readonly<Record<string, SeedContrast>> = {
  'mixed-groups': {"backend":"webgpu","seeds":[2,3,4,5,6],"top":2,"bottom":0,"diffs":[0.6417,0.57,0.655,0.5417,0.6563]},
  'entropy-collapse': {"backend":"webgpu","seeds":[2,3,4,5,6],"top":0,"bottom":1,"diffs":[0.1065,0.1076,0.1477,0.1409,0.024]},
  'reward-hacking': {"backend":"webgpu","seeds":[2,3,4,5,6],"top":1,"bottom":0,"diffs":[0.3581,0.4492,0.4284,0.4531,0.3568]},
  'scratchpad': {"backend":"webgpu","seeds":[2,3,4,5,6],"top":0,"bottom":1,"diffs":[0.776,0.5182,0.5885,0.7526,0.6328]},
  'dynamic-sampling': {"backend":"webgpu","seeds":[2,3,4,5,6,7,8,9,10,11],"top":0,"bottom":1,"diffs":[-0.2676,-0.1328,0.0102,-0.4538,-0.1519,-0.1118,0.5117,0.0151,-0.1382,0.1697]},
  'small-pool': {"backend":"webgpu","seeds":[2,3,4,5,6],"top":0,"bottom":1,"diffs":[0.3301,0.3158,0.4303,0.3796,0.5286]},
};
