-- RankingWriter.forgetMemberScript: its Swift declaration documents KEYS, ARGV and the reply.
local current = redis.call('HGET', KEYS[1], ARGV[1])
for i = 2, #ARGV do
  if current == ARGV[i] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
end
return 0
