// The lessons' page (learn.html): English. The lessons' own texts come with them.
export default {
  "nav.learn": "Learn",
  "learn.heading": "Learn to play",
  "learn.intro": "Short lessons on real deals: read, then make the move each one asks for. A wrong move is explained, and you try again. Your progress is kept in this browser.",
  "learn.all": "All lessons",
  "learn.finished": "finished",
  "learn.upNext": "next",
  "learn.transcript": "What happened so far",
  "learn.task": "Your task",
  "learn.hand": "Your hand",
  "learn.type": "Or type your move",
  "learn.send": "Send",
  "learn.done": "Lesson done!",
  "learn.next": "Next lesson",
  "learn.codes": "Rules: {codes}",
  "learn.refused": "Not allowed: {reason}",
  "learn.again": "Try again.",
};
