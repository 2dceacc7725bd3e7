# The checksum/external-secrets value for a pod template that reads every key of the given
# ExternalSecrets, computed with jq alone, as documented in README.md ("Checksum").
# Input: a JSON array of ExternalSecret objects (rendered: with their checksum/dependencies).
# Output: the canonical JSON to hash.
#   yq -s . es.yaml | jq -rj -f docs/checksum.jq | sha256sum
# (yq here is any YAML-to-JSON converter producing a JSON array of the documents.)

def obj: select(type == "object");
def dropdefaults($d): reduce ($d | keys[]) as $k (.; if .[$k] == $d[$k] then del(.[$k]) else . end);
def remoteref: dropdefaults({conversionStrategy: "Default", decodingStrategy: "None",
                             metadataPolicy: "None", nullBytePolicy: "Ignore"});
def storeref: dropdefaults({kind: "SecretStore"});
def generatorref: dropdefaults({apiVersion: "generators.external-secrets.io/v1alpha1"});

# Nulls, empty mappings and empty lists are dropped (list elements become null).
def prune:
  if type == "object" then
    with_entries(.value |= prune | select(.value != null)) | if . == {} then null else . end
  elif type == "array" then map(prune) | if . == [] then null else . end
  else . end;

def content:
  del(.refreshInterval, .refreshPolicy, .syncWindows)
  | (.target | obj) |= del(.creationPolicy, .deletionPolicy, .immutable)
  | (.target.template | obj) |= dropdefaults({engineVersion: "v2", mergePolicy: "Replace"})
  | (.target.template.templateFrom[]? | obj) |= dropdefaults({target: "Data"})
  | (.target.template.templateFrom[]? | obj | (.configMap, .secret) | obj | .items[]? | obj)
      |= dropdefaults({templateAs: "Values"})
  | (.secretStoreRef | obj) |= storeref
  | (.data[]? | obj | .remoteRef | obj) |= remoteref
  | (.data[]? | obj | .sourceRef.storeRef | obj) |= storeref
  | (.data[]? | obj | .sourceRef.generatorRef | obj) |= generatorref
  | (.dataFrom[]? | obj | (.extract, .find) | obj) |= remoteref
  | (.dataFrom[]? | obj | .sourceRef.storeRef | obj) |= storeref
  | (.dataFrom[]? | obj | .sourceRef.generatorRef | obj) |= generatorref
  | (.dataFrom[]? | obj | .rewrite[]? | obj | .merge | obj)
      |= dropdefaults({into: "", conflictPolicy: "Error", priorityPolicy: "Strict", strategy: "Extract"})
  | prune // {};

# Keys sorted, no whitespace: what `jq -cS` prints.
def canonical: walk(if type == "object" then to_entries | sort_by(.key) | from_entries else . end) | tojson;

map(select(.spec.target.manifest == null)
    | {secret: (if (.spec.target.name // "") != "" then .spec.target.name else .metadata.name end),
       # With dependencies in the input, the value the run writes on the ExternalSecret.
       content: ((.spec | content)
         + (.metadata.annotations["checksum/dependencies"] // null
            | if . == null then {} else {"checksum/dependencies": .} end))})
| map(canonical) | sort | "[" + join(",") + "]"
