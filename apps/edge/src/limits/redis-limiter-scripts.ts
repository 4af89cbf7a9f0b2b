/**
 * The Lua scripts behind RedisKeyLimiter, one per operation; Redis runs each atomically. Time is
 * Redis's own clock (TIME), so replicas with skewed clocks still share one window. Both keys of a
 * limited API key carry the same hash tag, `{<key id>}`, so a script touching both is valid on a
 * Redis Cluster too.
 */

/**
 * Admit one request or say why not, recording nothing on rejection.
 * KEYS[1] rate log: ZSET, member = lease id, score = admission time (ms)
 * KEYS[2] slots:    ZSET, member = lease id, score = slot expiry (ms)
 * ARGV    rpm (0 = none), max concurrency (0 = none), lease id, window ms, slot TTL ms
 * → {0, now} admitted · {1, ms until a rate slot frees} · {2, 0} every concurrency slot taken
 */
export const ACQUIRE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rpm = tonumber(ARGV[1])
local maxc = tonumber(ARGV[2])
local id = ARGV[3]
local window = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
if rpm > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
  local used = redis.call('ZCARD', KEYS[1])
  if used >= rpm then
    local freeing = redis.call('ZRANGE', KEYS[1], used - rpm, used - rpm, 'WITHSCORES')
    return {1, tonumber(freeing[2]) + window - now}
  end
end
if maxc > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= maxc then
    return {2, 0}
  end
end
if rpm > 0 then
  redis.call('ZADD', KEYS[1], now, id)
  redis.call('PEXPIRE', KEYS[1], window)
end
if maxc > 0 then
  redis.call('ZADD', KEYS[2], now + ttl, id)
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return {0, now}
`;

/**
 * Heartbeat: push a live slot's expiry out by one TTL. A slot already expired stays gone (its place
 * may have been given away meanwhile).
 * KEYS[1] slots · ARGV lease id, slot TTL ms → 1 refreshed · 0 gone
 */
export const REFRESH_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expiry or tonumber(expiry) <= now then
  return 0
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`;

/**
 * Release: drop the slot. One ZREM would do, but a script keeps every operation of the limiter the
 * same kind of call. KEYS[1] slots · ARGV lease id → 1 removed · 0 already gone
 */
export const RELEASE_LUA = `
return redis.call('ZREM', KEYS[1], ARGV[1])
`;
