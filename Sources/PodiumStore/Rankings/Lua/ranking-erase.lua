-- RankingWriter.eraseScript: its Swift declaration documents KEYS, ARGV and the reply.
local n = #KEYS - 2
if #ARGV < 2 then return 0 end
local members = {unpack(ARGV, 2)}
for i = 1, n do redis.call('ZREM', KEYS[i], unpack(members)) end
redis.call('HDEL', KEYS[n + 1], unpack(members))
local current = redis.call('HGET', KEYS[n + 2], ARGV[1])
for _, member in ipairs(members) do
  if current == member then redis.call('HDEL', KEYS[n + 2], ARGV[1]) end
end
return 1
