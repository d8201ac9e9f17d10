-- LeaderboardStore.compareScript: its Swift declaration documents KEYS, ARGV and the reply.
if redis.call('EXISTS', KEYS[2]) == 0 then return redis.error_reply('PODIUM rankings not ready') end
local found = {}
local members = {}
for i, id in ipairs(ARGV) do
  local member = id
  if KEYS[3] then member = redis.call('HGET', KEYS[3], id) end
  local s = member and redis.call('ZSCORE', KEYS[1], member)
  if s then
    found[#found + 1] = {id, s, redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. s), member}
    members[#members + 1] = member
  end
end
local names = {}
if KEYS[4] and #members > 0 then names = redis.call('HMGET', KEYS[4], unpack(members)) end
return {redis.call('ZCARD', KEYS[1]), found, names}
