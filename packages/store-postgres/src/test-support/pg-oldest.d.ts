// The oldest pg of the peer range, installed under its own name (package.json's devDependencies);
// it shares the newest's types, which describe what the store uses of both.
declare module 'pg-oldest' {
  import pg from 'pg';
  export default pg;
}
