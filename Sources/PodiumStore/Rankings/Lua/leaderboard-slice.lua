-- LeaderboardStore.sliceScript: its Swift declaration documents KEYS, ARGV and the reply.
if redis.call('EXISTS', KEYS[2]) == 0 then return redis.error_reply('PODIUM rankings not ready') end
local card = redis.call('ZCARD', KEYS[1])
local start, stop
if ARGV[1] == 'around' then
  local member = ARGV[2]
  if KEYS[4] then member = redis.call('HGET', KEYS[4], ARGV[2]) end
  local pos = member and redis.call('ZRANK', KEYS[1], member)
  if not pos then return {card, -1, {}, 0, {}} end
  start = math.max(pos - tonumber(ARGV[3]), 0)
  stop = pos + tonumber(ARGV[3])
else
  start = tonumber(ARGV[2])
  stop = start + tonumber(ARGV[3]) - 1
end
local page = redis.call('ZRANGE', KEYS[1], start, stop, 'WITHSCORES')
local above = 0
local players = {}
if #page > 0 then
  above = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. page[2])
  if KEYS[3] then
    local members = {}
    for i = 1, #page, 2 do members[#members + 1] = page[i] end
    players = redis.call('HMGET', KEYS[3], unpack(members))
  end
end
return {card, start, page, above, players}
