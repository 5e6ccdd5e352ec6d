// The lessons' page (learn.html): Japanese. The lessons' own texts come with them.
export default {
  "nav.learn": "遊び方を学ぶ",
  "learn.heading": "遊び方を学ぶ",
  "learn.intro": "実際の配り札で学ぶ短いレッスンです。説明を読んで、求められた手を指示どおりに出しましょう。間違えると理由が表示され、やり直せます。進み具合はこのブラウザに保存されます。",
  "learn.all": "レッスン一覧",
  "learn.finished": "完了",
  "learn.upNext": "次はこれ",
  "learn.transcript": "これまでの流れ",
  "learn.task": "課題",
  "learn.hand": "あなたの手札",
  "learn.type": "または手を入力",
  "learn.send": "送る",
  "learn.done": "レッスン完了！",
  "learn.next": "次のレッスン",
  "learn.codes": "ルール：{codes}",
  "learn.refused": "できません：{reason}",
  "learn.again": "もう一度どうぞ。",
};
