-- wrk: paced GETs (half of saturation) that collect the service's own Server-Timing app and
-- redis durations into 10 µs bins, merged across threads in done() and printed as one JSON line.
-- PACE_MS (env) is the pause each connection takes between responses.
local pace = tonumber(os.getenv("PACE_MS") or "2")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  app_bins = {}
  redis_bins = {}
  missing = 0
end

function delay()
  return pace
end

local function add(bins, ms)
  local bin = math.floor(ms * 100) -- 10 µs
  bins[bin] = (bins[bin] or 0) + 1
end

function response(status, headers, body)
  local timing = headers["Server-Timing"] or headers["server-timing"]
  if timing == nil then
    missing = missing + 1
    return
  end
  local app = timing:match("app;dur=([%d%.]+)")
  local redis = timing:match("redis;dur=([%d%.]+)")
  if app then add(app_bins, tonumber(app)) else missing = missing + 1 end
  if redis then add(redis_bins, tonumber(redis)) end
end

local function encode(bins)
  local parts = {}
  for bin, count in pairs(bins) do table.insert(parts, string.format('"%d":%d', bin, count)) end
  return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency, requests)
  local app, redis, miss = {}, {}, 0
  for _, thread in ipairs(threads) do
    for bin, count in pairs(thread:get("app_bins")) do app[bin] = (app[bin] or 0) + count end
    for bin, count in pairs(thread:get("redis_bins")) do redis[bin] = (redis[bin] or 0) + count end
    miss = miss + thread:get("missing")
  end
  io.write(string.format('SERVICE_TIMING {"app":%s,"redis":%s,"missing":%d}\n', encode(app), encode(redis), miss))
end
