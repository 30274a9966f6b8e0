export * from './attributes';
export * from './subjectAccessReview';
export * from './selfSubjectRulesReview';
