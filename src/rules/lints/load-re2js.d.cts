declare const loadRe2js: () => typeof import('re2js').RE2JS;
export = loadRe2js;
