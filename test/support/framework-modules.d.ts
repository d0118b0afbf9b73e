// The test matrix installs each supported major under its own name; they share the current majors' types.
declare module 'express4' {
  import express from 'express';
  export default express;
}
declare module 'express5' {
  import express from 'express';
  export default express;
}
declare module 'koa2' {
  import Koa from 'koa';
  export default Koa;
}
declare module 'koa3' {
  import Koa from 'koa';
  export default Koa;
}
