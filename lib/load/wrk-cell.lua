-- wrk driving one matrix cell (lib/load/wrk.js runs it): every request closes its connection and
-- wrk reconnects, resuming the TLS session of the connection before, which k6 cannot do. Env:
-- WRK_CELL_OUT (file), WRK_PAGE_BYTES (expected Content-Length), WRK_QUANTILES (percentiles).

wrk.headers["Connection"] = "close"

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

-- Per thread (each has its own Lua state); done() adds them up.
statuses = {}
wrong_size = 0
local page_bytes = tonumber(os.getenv("WRK_PAGE_BYTES"))

-- The page's length: its Content-Length (HAProxy sends header names in lower case), else the body.
local function length(headers, body)
  return tonumber(headers["content-length"] or headers["Content-Length"]) or #body
end

-- Each response counts as it does in k6/router-matrix.js: a 200 of the page's size, anything else
-- an error by status.
function response(status, headers, body)
  if status == 200 and (page_bytes == nil or length(headers, body) == page_bytes) then
    statuses["200"] = (statuses["200"] or 0) + 1
  elseif status == 200 then
    wrong_size = wrong_size + 1
  else
    local key = tostring(status)
    statuses[key] = (statuses[key] or 0) + 1
  end
end

local function number(v)
  return string.format("%.17g", v)
end

-- What was measured, as JSON to WRK_CELL_OUT (WRK_QUANTILES: the percentile grid of
-- k6/lib/distribution.js); lib/load/wrk.js turns it into the matrix's sample format.
function done(summary, latency, requests)
  local counts = {}
  local wrong = 0
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses") or {}) do
      counts[status] = (counts[status] or 0) + n
    end
    wrong = wrong + (thread:get("wrong_size") or 0)
  end
  local parts = {}
  for status, n in pairs(counts) do
    table.insert(parts, string.format('"%s":%d', status, n))
  end
  local grid = {}
  for q in string.gmatch(os.getenv("WRK_QUANTILES") or "", "[^,]+") do
    table.insert(grid, string.format('"%s":%s', q, number(latency:percentile(tonumber(q)))))
  end
  local e = summary.errors
  local out = assert(io.open(assert(os.getenv("WRK_CELL_OUT"), "WRK_CELL_OUT is not set"), "w"))
  out:write("{",
    '"durationUs":', number(summary.duration), ",",
    '"requests":', number(summary.requests), ",",
    '"errors":{"connect":', number(e.connect), ',"read":', number(e.read), ',"write":', number(e.write),
    ',"timeout":', number(e.timeout), "},",
    '"statuses":{', table.concat(parts, ","), "},",
    '"wrongSize":', number(wrong), ",",
    '"latencyUs":{"min":', number(latency.min), ',"max":', number(latency.max), ',"mean":',
    number(latency.mean), ',"percentiles":{', table.concat(grid, ","), "}}",
    "}\n")
  out:close()
end
