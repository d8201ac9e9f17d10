-- RankingWriter.updateScript: its Swift declaration documents KEYS, ARGV and the reply.
local n = tonumber(ARGV[2])
if redis.call('EXISTS', KEYS[n + 1]) == 0 then return redis.error_reply('PODIUM rankings not ready') end
local modes = ARGV[3]
local standings = {}
for i = 1, n do
  local value, member = ARGV[2 * i + 2], ARGV[2 * i + 3]
  local changed
  if string.sub(modes, i, i) == '=' then
    changed = redis.call('ZADD', KEYS[i], 'CH', value, member)
  else
    changed = redis.call('ZADD', KEYS[i], 'LT', 'CH', value, member)
  end
  local above = redis.call('ZCOUNT', KEYS[i], '-inf', '(' .. value)
  if changed == 0 and tonumber(redis.call('ZSCORE', KEYS[i], member)) < tonumber(value) then above = above - 1 end
  standings[2 * i - 1] = above
  standings[2 * i] = redis.call('ZCARD', KEYS[i])
end
for j = 2 * n + 4, #ARGV, 3 do
  redis.call('HSET', KEYS[n + 2], ARGV[j], ARGV[j + 2])
  redis.call('HSET', KEYS[n + 3], ARGV[j + 1], ARGV[j])
end
if n > 0 then
  -- Live streams on every replica learn which board periods changed (once each).
  local seen, changed = {}, {}
  for i = 1, n do
    if not seen[KEYS[i]] then seen[KEYS[i]] = true; changed[#changed + 1] = KEYS[i] end
  end
  redis.call('PUBLISH', ARGV[1], table.concat(changed, ' '))
end
return standings
