/**
 * The Lua scripts behind RedisReservations; Redis runs each atomically, on its own clock (TIME), so
 * replicas with skewed clocks share one window. Every key of an account — its money and its keys'
 * limits — carries the hash tag `{a:<account id>}`, so a script touching them all is valid on a Redis
 * Cluster too.
 *
 * Per account:  money  HASH  balance, version (the ledger's), reserved (sum of live holds)
 *               holds  ZSET  hold id → expiry (ms)
 *               amounts HASH hold id → amount
 * Per key:      rate   ZSET  lease id → admission time (ms)
 *               slots  ZSET  lease id → slot expiry (ms)
 */

/** Drops up to 64 expired holds of the account, giving their money back. KEYS money, holds, amounts. */
const EXPIRE_HOLDS = `
local function expire_holds(now)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now, 'LIMIT', 0, 64)
  for _, h in ipairs(expired) do
    local a = tonumber(redis.call('HGET', KEYS[5], h) or '0')
    redis.call('HINCRBY', KEYS[3], 'reserved', -a)
    redis.call('HDEL', KEYS[5], h)
    redis.call('ZREM', KEYS[4], h)
  end
end
`;

/**
 * Admit one request or say why not, recording nothing on refusal.
 * KEYS  1 rate · 2 slots · 3 money · 4 holds · 5 amounts
 * ARGV  1 rpm (0 = none) · 2 max concurrency (0 = none) · 3 lease id · 4 window ms · 5 slot TTL ms
 *       6 amount (0 = no hold) · 7 hold id · 8 hold TTL ms
 * →  {0, money left after the hold (-1: no hold placed now)} admitted · {1, ms until a rate slot frees} · {2, 0} every slot taken
 *    {3, 0} the account's money is not in Redis (load it, then retry) · {4, available} too little money
 */
export const ADMIT_LUA = `
${EXPIRE_HOLDS}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rpm = tonumber(ARGV[1])
local maxc = tonumber(ARGV[2])
local id = ARGV[3]
local window = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
local amount = tonumber(ARGV[6])
local hold = ARGV[7]
local holdTtl = tonumber(ARGV[8])
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
local left = -1
if amount > 0 and redis.call('HEXISTS', KEYS[5], hold) == 0 then
  if redis.call('EXISTS', KEYS[3]) == 0 then
    return {3, 0}
  end
  expire_holds(now)
  local available = tonumber(redis.call('HGET', KEYS[3], 'balance')) - tonumber(redis.call('HGET', KEYS[3], 'reserved'))
  if available < amount then
    return {4, available}
  end
  redis.call('HINCRBY', KEYS[3], 'reserved', amount)
  redis.call('HSET', KEYS[5], hold, amount)
  redis.call('ZADD', KEYS[4], now + holdTtl, hold)
  left = available - amount
end
if rpm > 0 then
  redis.call('ZADD', KEYS[1], now, id)
  redis.call('PEXPIRE', KEYS[1], window)
end
if maxc > 0 then
  redis.call('ZADD', KEYS[2], now + ttl, id)
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return {0, left}
`;

/**
 * Drops settled or refunded holds, and puts the ledger's balance in Redis when it is newer than what
 * Redis has. Idempotent: replaying it changes nothing.
 * KEYS  1 (unused) · 2 (unused) · 3 money · 4 holds · 5 amounts
 * ARGV  1 hold id ('' = none) · 2 balance ('' = none to apply) · 3 version
 *       4 'create' (load an account Redis does not hold) or 'update' (only touch one it holds)
 *       5… more hold ids (a settled batch's other holds of the account)
 * →  1 when Redis holds the account's money afterwards, else 0
 */
export const APPLY_LUA = `
local function drop_hold(id)
  local a = redis.call('HGET', KEYS[5], id)
  if a then
    redis.call('HINCRBY', KEYS[3], 'reserved', -tonumber(a))
    redis.call('HDEL', KEYS[5], id)
    redis.call('ZREM', KEYS[4], id)
  end
end
if ARGV[1] ~= '' then
  drop_hold(ARGV[1])
end
for i = 5, #ARGV do
  drop_hold(ARGV[i])
end
if ARGV[2] == '' then
  return redis.call('EXISTS', KEYS[3])
end
local version = tonumber(ARGV[3])
if redis.call('EXISTS', KEYS[3]) == 0 then
  if ARGV[4] ~= 'create' then
    return 0
  end
  redis.call('HSET', KEYS[3], 'balance', ARGV[2], 'version', ARGV[3], 'reserved', 0)
  return 1
end
if tonumber(redis.call('HGET', KEYS[3], 'version')) < version then
  redis.call('HSET', KEYS[3], 'balance', ARGV[2], 'version', ARGV[3])
end
return 1
`;

/**
 * Keeps at most an amount of a hold reserved: a finished call's hold, down to what the call cost,
 * until billing settles it (0 drops it). Never grows a hold; a hold already settled or expired is
 * left alone. KEYS 1 (unused) · 2 (unused) · 3 money · 4 holds · 5 amounts · ARGV hold id, amount
 * → 1 when the hold shrank, else 0
 */
export const SHRINK_LUA = `
local held = redis.call('HGET', KEYS[5], ARGV[1])
local to = tonumber(ARGV[2])
if not held or to >= tonumber(held) then
  return 0
end
redis.call('HINCRBY', KEYS[3], 'reserved', to - tonumber(held))
if to <= 0 then
  redis.call('HDEL', KEYS[5], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
else
  redis.call('HSET', KEYS[5], ARGV[1], to)
end
return 1
`;

/**
 * The account's money as Redis sees it now (expired holds dropped first), for reads and the
 * reconciliation job. KEYS 1 (unused) · 2 (unused) · 3 money · 4 holds · 5 amounts
 * → {} when absent, else {balance, version, reserved, sum of the amounts of its holds}
 */
export const READ_LUA = `
${EXPIRE_HOLDS}
if redis.call('EXISTS', KEYS[3]) == 0 then
  return {}
end
local t = redis.call('TIME')
expire_holds(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
local sum = 0
for _, v in ipairs(redis.call('HVALS', KEYS[5])) do
  sum = sum + tonumber(v)
end
local m = redis.call('HMGET', KEYS[3], 'balance', 'version', 'reserved')
return {m[1], m[2], m[3], tostring(sum)}
`;

/**
 * Keep running calls' holds alive (running-holds.ts): push each live one's expiry out to now + its
 * TTL. A hold already settled, refunded or expired stays gone. KEYS 1 holds · ARGV hold id, TTL ms, … → how many
 */
export const EXTEND_HOLDS_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local extended = 0
for i = 1, #ARGV, 2 do
  local expiry = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if expiry and tonumber(expiry) > now then
    local later = now + tonumber(ARGV[i + 1])
    if later > tonumber(expiry) then
      redis.call('ZADD', KEYS[1], later, ARGV[i])
    end
    extended = extended + 1
  end
end
return extended
`;

/** Heartbeat: push a live slot's expiry out by one TTL. KEYS 1 slots · ARGV lease id, TTL ms → 1 / 0 gone */
export const REFRESH_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expiry or tonumber(expiry) <= now then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`;
