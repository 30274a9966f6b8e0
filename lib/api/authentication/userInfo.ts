// The authenticated identity as the authentication API reports it (TokenReview, SelfSubjectReview).
import { openapiDefinitionPrefix as P } from '../product';
import { defineObject, ObjectOf, s } from '../schema';

export const authenticationDefinitionName = (n: string): string => `${P.api}.authentication.v1.${n}`;

export const UserInfoSchema = defineObject({
  name: authenticationDefinitionName('UserInfo'),
  description: 'UserInfo holds the information about the user needed to implement the user.Info interface.',
  fields: {
    username: s.string({ protobuf: 1, description: 'The name that uniquely identifies this user among all active users.' }),
    uid: s.string({ protobuf: 2, description: 'A unique value that identifies this user across time. If this user is deleted and another user by the same name is added, they will have different UIDs.' }),
    groups: s.array(s.string(), { protobuf: 3, listType: 'atomic', description: 'The names of groups this user is a part of.' }),
    extra: s.map(s.array(s.string()), { protobuf: 4, description: 'Any additional information provided by the authenticator.' }),
  },
});

export type AuthenticationUserInfo = ObjectOf<typeof UserInfoSchema>;
