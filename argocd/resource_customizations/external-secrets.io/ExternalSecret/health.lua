-- Generation-aware health check for external-secrets.io/ExternalSecret.
-- Lua 5.1 (Argo CD runs it with gopher-lua).
--
-- Argo CD's built-in check reports Healthy for any Ready=True, even one left
-- over from the previous generation (argo-cd issue #22707). ESO has no
-- status.observedGeneration, but every successful sync writes
-- status.syncedResourceVersion = "<generation>-<hash of labels+annotations>".
-- This check reports Healthy only when that generation (compared as a number)
-- equals metadata.generation.
--
-- Decisions:
-- * Like the built-in check, the FIRST Ready condition whose status is
--   "True" or "False" decides. ESO keeps a single Ready condition, so in
--   practice this is the only one.
-- * Ready=False is Degraded even at a stale generation: it is ESO's verdict on
--   its latest attempt.
-- * The generation check is skipped (Ready alone decides, as in the built-in)
--   when ESO never syncs a newer generation on its own:
--   - refreshPolicy CreatedOnce: after the first sync ESO never refreshes
--     again, whatever the spec says, so syncedResourceVersion keeps the
--     creation generation.
--   - refreshPolicy Periodic (the default) with refreshInterval <= 0 ("0s"):
--     after the first sync ESO does not refresh, not even on spec changes.
--   Waiting for a sync that never comes would keep the resource Progressing
--   forever and block later sync waves.
--   OnChange keeps the check: ESO re-syncs as soon as syncedResourceVersion
--   no longer matches the current generation and metadata hash.
-- * metadata.generation missing (object not from an API server): Ready decides.
-- * syncedResourceVersion missing or not "<digits>-...": Progressing, because
--   we cannot tell whether Ready=True belongs to the current generation.
--
-- string.find/string.match need, in argocd-cm:
--   resource.customizations.useOpenLibs.external-secrets.io_ExternalSecret: "true"

local hs = {status = "Progressing", message = "Waiting for ExternalSecret"}
local status = obj.status or {}

local ready = nil
for _, condition in ipairs(status.conditions or {}) do
  if condition.type == "Ready" and (condition.status == "True" or condition.status == "False") then
    ready = condition
    break
  end
end
if ready == nil then
  return hs
end
if ready.status == "False" then
  hs.status = "Degraded"
  hs.message = ready.message
  return hs
end

-- true when ESO will not sync a new generation by itself (see above)
local function neverResyncs(spec)
  if spec.refreshPolicy == "CreatedOnce" then
    return true
  end
  if spec.refreshPolicy == "OnChange" then
    return false
  end
  -- A Go duration is <= 0 when it starts with "-" or has no non-zero digit
  -- ("0", "0s", "0h0m0s"). Missing means the CRD default "1h0m0s".
  local interval = tostring(spec.refreshInterval or "1h0m0s")
  return string.find(interval, "^%-") ~= nil or string.find(interval, "[1-9]") == nil
end

local generation = obj.metadata and obj.metadata.generation
if generation ~= nil and not neverResyncs(obj.spec or {}) then
  local synced = status.syncedResourceVersion
  local syncedGeneration = nil
  if type(synced) == "string" then
    syncedGeneration = string.match(synced, "^(%d+)%-")
  end
  if syncedGeneration == nil or tonumber(syncedGeneration) ~= tonumber(generation) then
    hs.message = "Waiting for ExternalSecret to sync generation " .. generation
      .. " (synced: " .. (syncedGeneration or "unknown") .. ")"
    return hs
  end
end

hs.status = "Healthy"
hs.message = ready.message
return hs
