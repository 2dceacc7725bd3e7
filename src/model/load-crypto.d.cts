declare const loadCrypto: () => typeof import('node:crypto');
export = loadCrypto;
