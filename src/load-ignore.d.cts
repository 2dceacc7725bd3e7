declare const loadIgnore: () => typeof import('ignore').default;
export = loadIgnore;
