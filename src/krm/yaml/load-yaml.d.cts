declare const loadYaml: () => typeof import('yaml');
export = loadYaml;
