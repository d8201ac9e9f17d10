-- LeaderboardStore.standingsScript: its Swift declaration documents KEYS, ARGV and the reply.
if redis.call('EXISTS', KEYS[#KEYS]) == 0 then return redis.error_reply('PODIUM rankings not ready') end
local out = {}
local member = redis.call('HGET', KEYS[#KEYS - 1], ARGV[1])
if not member then return out end
for i = 1, #KEYS - 2 do
  local key = KEYS[i]
  local s = redis.call('ZSCORE', key, member)
  if s then
    out[#out + 1] = {i, s, redis.call('ZCOUNT', key, '-inf', '(' .. s), redis.call('ZCARD', key)}
  end
end
return out
