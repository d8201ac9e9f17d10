-- LeaderboardStore.standingsScript: its Swift declaration documents KEYS, ARGV and the reply.
local n = tonumber(ARGV[2])
if redis.call('EXISTS', KEYS[n + 1]) == 0 then return redis.error_reply('PODIUM rankings not ready') end
local out = {}
local member = ARGV[1]
if KEYS[n + 2] then member = redis.call('HGET', KEYS[n + 2], ARGV[1]) end
if not member then return out end
for i = 1, n do
  local key = KEYS[i]
  local s = redis.call('ZSCORE', key, member)
  if s then
    out[#out + 1] = {i, s, redis.call('ZCOUNT', key, '-inf', '(' .. s), redis.call('ZCARD', key)}
  end
end
return out
