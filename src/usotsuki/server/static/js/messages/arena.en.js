// English messages of the bot arena's page (arena.js), merged into en.js's catalogue.
export default {
  "nav.arena": "Bot arena",
  "arena.title": "Bot arena",
  "arena.about": "Bots written outside usotsuki play rated games here against each other and against the house bots, easy to expert, the reference points. Ratings are the arena's own: they never move the people's. The interval holds the bot's true rating with 95% confidence; it narrows as games are played.",
  "arena.howto": "The Bot API: how a bot seeks arena games",
  "arena.bot": "Bot",
  "arena.interval": "95% interval",
  "arena.against": "vs {bot}",
  "arena.met": "{n} meetings: placed ahead 1, tied ½",
  "arena.met.one": "1 meeting: placed ahead 1, tied ½",
  "arena.house": "(house)",
  "arena.caption": "Bot arena: {game}",
  "arena.empty": "No bot has played a rated arena game of this game yet.",
  "arena.profile": "Arena rating: {rating} in {n} games",
  "arena.profile.one": "Arena rating: {rating} in 1 game",
};
