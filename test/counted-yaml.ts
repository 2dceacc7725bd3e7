// The `yaml` library as src/krm/yaml/load-yaml.cjs hands it out, counting what it reads: for
// tests that bound the library's work (vi.mock of load-yaml.cjs, whose factory calls this).
import type * as Yaml from 'yaml';

/** What the library read: characters parsed into documents (the locator), and lexed (the verdict). */
export interface YamlReads {
  documents: number;
  located: number;
  lexed: number;
}

export async function countedYaml(
  importOriginal: () => Promise<unknown>,
  counted: YamlReads,
): Promise<{ default: () => typeof Yaml }> {
  const actual = (await importOriginal()) as { default: () => typeof Yaml };
  return {
    default: () => {
      const yaml = actual.default();
      return {
        ...yaml,
        parseDocument: ((text: string, options?: Yaml.DocumentOptions) => {
          counted.documents++;
          counted.located += text.length;
          return yaml.parseDocument(text, options);
        }) as typeof yaml.parseDocument,
        Lexer: class extends yaml.Lexer {
          override *lex(source: string, incomplete?: boolean) {
            counted.lexed += source.length;
            yield* super.lex(source, incomplete);
          }
        },
      };
    },
  };
}
