-- wrk script for bench/http: sends a pool of pre-signed requests, each once, in order.
-- Environment: BENCH_POOL (file: a body line then a signature line, per request) and
-- BENCH_CYCLE ("1": start again at the end, for the duplicates case; otherwise a pool that runs
-- out is reported as exhausted, and run.ts flags the run: its events were not all new. run.ts
-- sizes pools with a wide margin so that this does not happen; no delay() keeps wrk lean).
-- Counts the outcomes dcbkit answers, so that run.ts can check that "new" was new.

local pool = {}
local size = 0
local cycle = os.getenv("BENCH_CYCLE") == "1"
local nextIndex = 1
exhausted = 0
applied = 0
duplicate = 0
other = 0

function init(args)
  local file = assert(io.open(os.getenv("BENCH_POOL"), "r"))
  while true do
    local body = file:read("*l")
    if not body or body == "" then break end
    local signature = file:read("*l")
    size = size + 1
    pool[size] = wrk.format("POST", "/webhooks", {
      ["Host"] = "127.0.0.1",
      ["Content-Type"] = "application/json",
      ["Service-Signature"] = signature,
    }, body)
  end
  file:close()
end

function request()
  if nextIndex > size then
    nextIndex = 1
    if not cycle then exhausted = 1 end
  end
  local r = pool[nextIndex]
  nextIndex = nextIndex + 1
  return r
end

function response(status, headers, body)
  if status == 200 and string.find(body, '"applied"', 1, true) then
    applied = applied + 1
  elseif status == 200 and string.find(body, '"duplicate"', 1, true) then
    duplicate = duplicate + 1
  else
    other = other + 1
  end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local t = threads[1]
  local errors = summary.errors
  io.write(string.format(
    '\nBENCH {"requests":%d,"durationUs":%d,"applied":%d,"duplicate":%d,"other":%d,"exhausted":%d,"socketErrors":%d}\n',
    summary.requests, summary.duration, t:get("applied"), t:get("duplicate"), t:get("other"),
    t:get("exhausted"), errors.connect + errors.read + errors.write + errors.timeout))
end
