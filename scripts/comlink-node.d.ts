// Comlink's Node adapter ships its types beside the .mjs under another name (node-adapter.d.ts).
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import nodeEndpoint from 'comlink/dist/esm/node-adapter';
  export default nodeEndpoint;
}
