// English messages of challenges (js/challenge.js on a bot's profile, js/incoming.js on
// the home page, js/botchallenges.js on the Account page), merged into en.js's catalogue.
export default {
  "challenge.heading": "Challenge {name}",
  "challenge.clock": "Time per move",
  "challenge.seconds": "{n} s",
  "challenge.terms": "An unrated game; any other seats are house bots'. A move not made in time is made for its seat.",
  "challenge.send": "Send the challenge",
  "challenge.waiting": "Waiting for {name} to answer (at most 2 minutes)…",
  "challenge.withdraw": "Withdraw",
  "challenge.ended.declined": "{name} declined your challenge.",
  "challenge.ended.cancelled": "You withdrew your challenge.",
  "challenge.ended.expired": "{name} did not answer in time.",
  "challenge.terms.line": "{game}, {n} players, {preset}, {seconds} s a move",

  "challenges.heading": "Challenges",
  "challenges.from": "Challenge from",
  "challenges.to": "You challenged",
  "challenges.accept": "Accept",
  "challenges.decline": "Decline",
  "challenges.toTable": "Accepted: to the table",

  "account.botChallenges.heading": "Challenges from bots",
  "account.botChallenges": "Take challenges from bots",
  "account.botChallenges.desc": "Outside bots may then challenge you: their challenges show on the home page, to accept or decline.",
  "account.botChallenges.on": "Bots may challenge you now.",
  "account.botChallenges.off": "Bots can no longer challenge you.",

  "err.bad_challenge": "This challenge cannot be made as asked.",
  "err.no_challenges": "This player does not take challenges.",
  "err.challenge_open": "A challenge between you two is open already: wait for its answer.",
  "err.too_many_challenges": "You have {max} challenges open: wait for their answers or withdraw one.",
  "err.challenge_ended": "This challenge has ended already.",
};
