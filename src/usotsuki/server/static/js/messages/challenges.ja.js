// 対戦申し込みのメッセージ（ボットのプロフィールの js/challenge.js、ホームの js/incoming.js、
// アカウントページの js/botchallenges.js）。ja.js に統合。
export default {
  "challenge.heading": "{name}に対戦を申し込む",
  "challenge.clock": "1手の持ち時間",
  "challenge.seconds": "{n}秒",
  "challenge.terms": "レーティングのつかない対戦です。ほかの席にはハウスボットが座ります。時間内に動かない席には代わりの手が入ります。",
  "challenge.send": "申し込む",
  "challenge.waiting": "{name}の返事を待っています（最長2分）…",
  "challenge.withdraw": "取り下げる",
  "challenge.ended.declined": "{name}は申し込みを断りました。",
  "challenge.ended.cancelled": "申し込みを取り下げました。",
  "challenge.ended.expired": "{name}から時間内に返事がありませんでした。",
  "challenge.terms.line": "{game}・{n}人・{preset}・1手{seconds}秒",

  "challenges.heading": "対戦申し込み",
  "challenges.from": "対戦を申し込んできた相手：",
  "challenges.to": "あなたが申し込んだ相手：",
  "challenges.accept": "受ける",
  "challenges.decline": "断る",
  "challenges.toTable": "受けてもらえました。テーブルへ",

  "account.botChallenges.heading": "ボットからの対戦申し込み",
  "account.botChallenges": "ボットからの対戦申し込みを受け付ける",
  "account.botChallenges.desc": "外部のボットがあなたに対戦を申し込めるようになります。申し込みはホームに表示され、受けるか断るかを選べます。",
  "account.botChallenges.on": "ボットから申し込みを受け付けています。",
  "account.botChallenges.off": "ボットからの申し込みを受け付けなくなりました。",

  "err.bad_challenge": "この内容では対戦を申し込めません。",
  "err.no_challenges": "このプレイヤーは対戦申し込みを受け付けていません。",
  "err.challenge_open": "2人の間の申し込みがすでにあります。返事を待ってください。",
  "err.too_many_challenges": "返事待ちの申し込みが{max}件あります。返事を待つか、どれかを取り下げてください。",
  "err.challenge_ended": "この申し込みはすでに終わっています。",
};
